/** The database engine under the queries: the same SQL on each but for the notification fan-out. */
export type Engine = "sqlite" | "postgres";
