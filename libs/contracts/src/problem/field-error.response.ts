/** One invalid member of the request body. */
export class FieldErrorResponse {
  /**
   * RFC 6901 JSON pointer to the member in the request body (`""` for the body itself).
   * @example "/size"
   */
  pointer!: string;

  /**
   * What is wrong with the member.
   * @example "must be an integer from 1 to 12"
   */
  detail!: string;
}
