/** The parts of an HTTP request that carry credentials (and that OAuth signs). */
export interface Credentials {
  readonly method: string;
  /** scheme://host[:port]/path as received, without the query. */
  readonly baseUri: string;
  readonly rawQuery: string;
  readonly authorization: string | undefined;
  /** Raw body, only for application/x-www-form-urlencoded requests. */
  readonly formBody: string | undefined;
  /** Raw body of any other non-multipart request ("" when none), for oauth_body_hash. */
  readonly rawBody?: string | undefined;
  /** The same URI under the configured public URL (behind a proxy); a signature over either verifies. */
  readonly publicBaseUri?: string | undefined;
}
