import { AmendFormPage } from './form-page';

export default AmendFormPage;
