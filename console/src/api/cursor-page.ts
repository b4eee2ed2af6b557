/** A cursor list's page as the API answers it (v2 lists): `next`/`previous` go back as `after`/`before`. */
export interface CursorPage<T> {
  data: T[];
  next: string | null;
  previous: string | null;
}
