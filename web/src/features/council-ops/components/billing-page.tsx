import UnderConstructionPage from '../../dashboard/components/under-construction-page';

/** Placeholder until the page is built. */
export default function BillingPage() {
  return <UnderConstructionPage areaKey="nav.council" />;
}
