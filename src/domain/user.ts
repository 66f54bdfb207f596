/** A person who signs in. The password hash never leaves the store's auth queries. */
export interface User {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly familyKana: string;
  readonly givenKana: string;
}
