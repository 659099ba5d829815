import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';

// kysely's SQLite dialect over node:sqlite. kysely expects a better-sqlite3-like database; the
// adapter below is that shape. Two changes to kysely's own dialect:
// - transactions begin IMMEDIATE: a writer takes the file's write lock at BEGIN (waiting out
//   busy_timeout) instead of failing with SQLITE_BUSY when it first writes under another process;
// - SQLite's DDL is transactional, which tells kysely's migrator to run migrations in such a
//   transaction, so processes opening one file at once run each migration once.
// Prepared statements are kept by their SQL text: preparing took a third of the indexer's time
// when every statement was prepared again (BENCHMARKS.md, transfer indexer).

export class NodeSqliteDialect implements Dialect {
  readonly #database: SqliteDatabase;

  constructor(database: DatabaseSync) {
    this.#database = new NodeSqliteDatabase(database);
  }

  createDriver(): Driver {
    return new ImmediateTransactionDriver({ database: this.#database });
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Statements kept prepared; past this the least recently used is let go. */
const PREPARED_STATEMENTS = 256;

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #database: DatabaseSync;
  readonly #prepared = new Map<string, { statement: StatementSync; reader: boolean }>();

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  close(): void {
    this.#prepared.clear();
    if (this.#database.isOpen) this.#database.close();
  }

  prepare(sql: string): SqliteStatement {
    const { statement, reader } = this.#statement(sql);
    return {
      reader,
      all: (parameters) => statement.all(...sqliteValues(parameters)),
      run: (parameters) => statement.run(...sqliteValues(parameters)),
      iterate: (parameters) => statement.iterate(...sqliteValues(parameters)),
    };
  }

  #statement(sql: string): { statement: StatementSync; reader: boolean } {
    const kept = this.#prepared.get(sql);
    if (kept) {
      // Most recently used last: a Map iterates in insertion order.
      this.#prepared.delete(sql);
      this.#prepared.set(sql, kept);
      return kept;
    }
    const statement = this.#database.prepare(sql);
    const prepared = { statement, reader: statement.columns().length > 0 };
    this.#prepared.set(sql, prepared);
    if (this.#prepared.size > PREPARED_STATEMENTS) this.#prepared.delete(this.#prepared.keys().next().value as string);
    return prepared;
  }
}

/** node:sqlite binds no booleans; anything else it cannot bind it refuses itself. */
function sqliteValues(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value) => (typeof value === 'boolean' ? Number(value) : (value as SQLInputValue)));
}
