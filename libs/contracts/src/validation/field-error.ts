/** One invalid member of a request body. */
export interface FieldError {
  /** RFC 6901 JSON pointer to the member in the request body; `""` is the body itself. */
  pointer: string;
  /** What is wrong, as a phrase that follows the member's name ("must be ..."). */
  detail: string;
}

export const UNKNOWN_MEMBER_DETAIL = 'is not a known member';
export const NOT_AN_OBJECT_BODY_DETAIL = 'must be a JSON object';
