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

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #database: DatabaseSync;

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  close(): void {
    if (this.#database.isOpen) this.#database.close();
  }

  prepare(sql: string): SqliteStatement {
    const statement: StatementSync = this.#database.prepare(sql);
    return {
      reader: statement.columns().length > 0,
      all: (parameters) => statement.all(...sqliteValues(parameters)),
      run: (parameters) => statement.run(...sqliteValues(parameters)),
      iterate: (parameters) => statement.iterate(...sqliteValues(parameters)),
    };
  }
}

/** node:sqlite binds no booleans; anything else it cannot bind it refuses itself. */
function sqliteValues(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value) => (typeof value === 'boolean' ? Number(value) : (value as SQLInputValue)));
}
