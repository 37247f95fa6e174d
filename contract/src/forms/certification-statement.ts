/**
 * The one certification statement of every APC form (1 to 5), in English. The portal shows it (its English locale
 * text is this same string, checked by a test) and every form's PDF prints it, with the handler's name.
 *
 * The APC's own wording is not known (domain brief: "Exact wording: not found"; proposal: an attest checkbox plus
 * the signer's name, title and a timestamp), so this is the portal's wording, kept in this one place. The company
 * name stands inside the sentence: names often end in a period ("Riverbend Pecan Co.").
 */
export const CERTIFICATION_STATEMENT_TEMPLATE =
  'I am authorized to file this report on behalf of {{handler}}, and I certify that the information in it is true ' +
  'and complete to the best of my knowledge.';

/** The statement for one handler, as the PDF prints it. */
export const certificationStatement = (handler: string): string =>
  CERTIFICATION_STATEMENT_TEMPLATE.replace('{{handler}}', handler);
