import UnderConstructionPage from '../../dashboard/components/under-construction-page';

/** Placeholder until the page is built. */
export default function RemindersPage() {
  return <UnderConstructionPage areaKey="nav.council" />;
}
