import UnderConstructionPage from '../../dashboard/components/under-construction-page';

/** Placeholder until the page is built. */
export default function UsersPage() {
  return <UnderConstructionPage areaKey="nav.council" />;
}
