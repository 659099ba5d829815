import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { DatabaseSchema } from './schema.ts';

// An INSERT of many rows whose SQL is built and compiled by kysely once per database and row
// count, then only bound: building and compiling a 300-row statement cost the transfer indexer
// more than the database spent running it (BENCHMARKS.md, transfer indexer). The statement's
// shape (table, conflict clause) is fixed by `build`; only the rows vary.

/** A row of plain column values (an interface of the schema fits, which a Record type would not). */
type Row<R> = { [column in keyof R]: string | number | null };

export interface BulkInsert<R extends Row<R>> {
  /** Inserts `rows` through `executor` (the database or one of its transactions) of `database`. */
  run(database: Kysely<DatabaseSchema>, executor: Kysely<DatabaseSchema>, rows: readonly R[]): Promise<void>;
}

/**
 * `columns` in the order every row has them; `build` makes the statement for some rows (its SQL
 * must depend on nothing but their number). The SQL is kept per `database`: its dialect decides it.
 */
export function bulkInsert<R extends Row<R>>(
  columns: readonly (keyof R & string)[],
  build: (executor: Kysely<DatabaseSchema>, rows: R[]) => Compilable,
): BulkInsert<R> {
  const compiled = new WeakMap<Kysely<DatabaseSchema>, Map<number, string>>();
  return {
    async run(database, executor, rows) {
      if (rows.length === 0) return;
      const parameters: Array<string | number | null> = [];
      for (const row of rows) for (const column of columns) parameters.push(row[column] ?? null);
      let byCount = compiled.get(database);
      if (!byCount) compiled.set(database, (byCount = new Map()));
      const sql = byCount.get(rows.length);
      if (sql !== undefined) {
        await executor.executeQuery(CompiledQuery.raw(sql, parameters));
        return;
      }
      const query = build(executor, [...rows]).compile();
      // The binding above must be the one kysely compiled, or every later statement would be wrong.
      if (query.parameters.length !== parameters.length || query.parameters.some((value, index) => value !== parameters[index]))
        throw new Error(`bulkInsert: the columns given (${columns.join(', ')}) are not the statement's parameters in order`);
      byCount.set(rows.length, query.sql);
      await executor.executeQuery(query);
    },
  };
}
