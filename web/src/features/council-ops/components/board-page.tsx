import UnderConstructionPage from '../../dashboard/components/under-construction-page';

/** Placeholder until the page is built. */
export default function BoardPage() {
  return <UnderConstructionPage areaKey="nav.council" />;
}
