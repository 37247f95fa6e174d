import UnderConstructionPage from '../../dashboard/components/under-construction-page';

/** Placeholder until the page is built. */
export default function FilingVersionsPage() {
  return <UnderConstructionPage areaKey="nav.council" />;
}
