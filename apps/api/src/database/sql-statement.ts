/**
 * A SQL statement written once, with named parameters (`$projectId`), and run as a named
 * prepared statement: PostgreSQL parses and plans it once per connection, and each call sends
 * only its name and values. Values are always bound, never spliced into the text.
 */
export interface SqlStatement<P extends object, R> {
  readonly name: string;
  readonly text: string;
  /** Parameter names in `$1`, `$2`, … order. */
  readonly parameters: readonly (keyof P & string)[];
  /** Carries the row type; never set. */
  readonly row?: R;
}

/**
 * A statement that reads a row or a few by index and takes no lock, such as a representation's
 * revision: it may run behind other checks on one shared connection (SqlSession.check), so that
 * checks that come together cost one write to PostgreSQL, not one each. Whatever builds a
 * document, scans, or waits on a lock stays a plain statement: behind it, every check would wait.
 */
export interface CheckStatement<P extends object, R> extends SqlStatement<P, R> {
  readonly check: true;
}

// camelCase names, the only placeholders a statement may hold: positional `$1` and dollar
// quoting (`$$`, `$tag$`) are refused rather than mixed up with them, and no statement puts a
// `$word` inside a string literal or a comment.
const PARAMETER = /\$([a-z][A-Za-z0-9]*)/g;
const NOT_NAMED = /\$(?:\d|\$|[A-Za-z_][A-Za-z0-9_]*\$)/;
/** A statement as the process knows it, whatever its parameters and rows. */
export interface DefinedStatement {
  readonly name: string;
  readonly text: string;
  readonly parameters: readonly string[];
}

const defined = new Map<string, DefinedStatement>();

/**
 * Compiles `sql` with `$name` parameters to PostgreSQL's positional ones. Names must be unique
 * across the process: a prepared statement's name stands for its text on every connection.
 */
export function sqlStatement<P extends object = Record<string, never>, R = unknown>(
  name: string,
  sql: string,
): SqlStatement<P, R> {
  if (NOT_NAMED.test(sql)) throw new Error(`${name}: use $camelCase parameters only`);
  const parameters: string[] = [];
  const text = sql.replace(PARAMETER, (_, parameter: string) => {
    let index = parameters.indexOf(parameter);
    if (index < 0) index = parameters.push(parameter) - 1;
    return `$${index + 1}`;
  });
  const known = defined.get(name);
  if (known && known.text !== text) {
    throw new Error(`Two different SQL statements are named ${name}`);
  }
  const statement = { name, text, parameters: parameters as (keyof P & string)[] };
  defined.set(name, statement);
  return statement;
}

/** A statement declared a check (see CheckStatement). */
export function checkStatement<P extends object = Record<string, never>, R = unknown>(
  name: string,
  sql: string,
): CheckStatement<P, R> {
  return { ...sqlStatement<P, R>(name, sql), check: true };
}

/**
 * Every statement defined in this process so far, in the order they were: what the committed
 * query files show (scripts/sql/queries.ts).
 */
export function definedStatements(): DefinedStatement[] {
  return [...defined.values()];
}

/**
 * The positional values of a statement's named parameters. A missing one (absent, inherited or
 * undefined) is a defect: SQL NULL is passed as null, on purpose.
 */
export function bindParameters<P extends object>(
  statement: SqlStatement<P, unknown>,
  params: P,
): unknown[] {
  return statement.parameters.map((name) => {
    if (!Object.hasOwn(params, name) || params[name] === undefined) {
      throw new Error(`${statement.name}: no value for $${name}`);
    }
    return params[name];
  });
}
