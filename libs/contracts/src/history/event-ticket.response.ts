/** `POST /projects/<p>/events/tickets`: a single-use ticket for `?ticket=` on the stream. */
export class EventTicketResponse {
  /** Valid once, for this project's stream only. */
  ticket!: string;
  /** Seconds it stays valid. */
  expiresIn!: number;
}
