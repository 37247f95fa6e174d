import UnderConstructionPage from '../../dashboard/components/under-construction-page';

/** Placeholder until the page is built. */
export default function PublishingPage() {
  return <UnderConstructionPage areaKey="nav.council" />;
}
