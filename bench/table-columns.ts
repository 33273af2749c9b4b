import { type Client } from 'pg';

/** A column as information_schema describes it, read at run time (the schema keeps changing). */
export interface TableColumn {
  name: string;
  dataType: string;
  /** For enums (USER-DEFINED): the type's schema and name. */
  udtSchema: string;
  udtName: string;
  maxLength: number | null;
  notNull: boolean;
  hasDefault: boolean;
  /** Generated or identity columns: PostgreSQL fills them, an INSERT must leave them out. */
  generated: boolean;
}

export async function tableColumns(db: Client, table: string): Promise<TableColumn[]> {
  const { rows } = await db.query<{
    column_name: string;
    data_type: string;
    udt_schema: string;
    udt_name: string;
    character_maximum_length: number | null;
    is_nullable: 'YES' | 'NO';
    column_default: string | null;
    is_generated: string;
    identity_generation: string | null;
  }>(
    `SELECT column_name, data_type, udt_schema, udt_name, character_maximum_length, is_nullable,
       column_default, is_generated, identity_generation
     FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1
     ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => ({
    name: row.column_name,
    dataType: row.data_type,
    udtSchema: row.udt_schema,
    udtName: row.udt_name,
    maxLength: row.character_maximum_length,
    notNull: row.is_nullable === 'NO',
    hasDefault: row.column_default !== null,
    generated: row.is_generated === 'ALWAYS' || row.identity_generation !== null,
  }));
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * For a new row of `table` whose listed columns are given: an SQL value for every other NOT
 * NULL column without a default, chosen by its type; a type it cannot fill is an error that
 * names the column.
 */
export function requiredFillers(
  table: string,
  columns: TableColumn[],
  given: string[],
): { name: string; value: string }[] {
  return columns
    .filter((c) => c.notNull && !c.hasDefault && !c.generated && !given.includes(c.name))
    .map((c) => ({ name: c.name, value: fillerValue(table, c) }));
}

function fillerValue(table: string, column: TableColumn): string {
  switch (column.dataType) {
    case 'text':
    case 'character varying':
    case 'character':
      return `'${'filler'.slice(0, column.maxLength ?? 6)}'`;
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'numeric':
    case 'real':
    case 'double precision':
      return '0';
    case 'boolean':
      return 'false';
    case 'uuid':
      return 'gen_random_uuid()';
    case 'timestamp with time zone':
    case 'timestamp without time zone':
    case 'date':
      return 'now()';
    case 'json':
    case 'jsonb':
    case 'ARRAY':
      return `'{}'`;
    case 'bytea':
      return `''::bytea`;
    case 'USER-DEFINED':
      return `(enum_range(NULL::${ident(column.udtSchema)}.${ident(column.udtName)}))[1]`;
    default:
      throw new Error(
        `${table}.${column.name} (${column.dataType}) is NOT NULL without a default, and the ` +
          'bench does not know what to put in it for filler rows: give it a default, or teach ' +
          'bench/table-columns.ts its type',
      );
  }
}
