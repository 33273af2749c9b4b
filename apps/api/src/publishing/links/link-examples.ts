/** A link as its creation answers it (a listing shows `url` as null). */
export const SHARE_LINK_EXAMPLE = {
  _id: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a90',
  url: '/shared/3q2-7wPpQ1m0ZzKxVnB4cD8eF6gH5iJ9kL2mN0oP7rS',
  revision: 7,
  createdAt: '2026-11-29T10:15:30.000Z',
  expiresAt: null,
  views: 0,
  lastViewedAt: null,
};
