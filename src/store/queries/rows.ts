/**
 * The row a repository's `select…` builder yields, so that its mapper is typed by the query itself
 * (`toTask(row: RowOf<typeof selectTasks>)`) and follows it when a column is added.
 */
export type RowOf<Select extends (...args: never[]) => { executeTakeFirstOrThrow(): Promise<unknown> }> = Awaited<
  ReturnType<ReturnType<Select>["executeTakeFirstOrThrow"]>
>;
