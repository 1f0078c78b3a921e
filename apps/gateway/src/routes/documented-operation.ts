/** One operation of the REST documents' routes inventory (spec/routes.tsv). */
export interface DocumentedOperation {
  method: string;
  path: string;
  /** As documented; "?" where the documents state none. */
  minRole: string;
  service: string;
  summary: string;
}
