// DuckDB checks a CSV file that corank sorted: DuckDB reads the input and the
// sorted file into tables (in file order: rowid), and for each sorted file
// checks that it holds the input's rows and that its order is DuckDB's own
// ORDER BY, ties in id order (the input's).
//   node duckdb_order.mjs MODULES_DIR INPUT.csv [SORTED.csv "ORDER BY clause"]...
// An ORDER BY clause that starts with "!" is one the file must not be in
// (rows in place all the same): a file in another order shows that the
// orders differ.
// MODULES_DIR holds node_modules/@duckdb/node-api. The files are the accounts
// of tests/examples/accounts.awk: id, name, amount (a DOUBLE here: DuckDB's
// DECIMAL holds no NaN or infinity), ts (TIMESTAMPTZ, UTC where no offset is
// written, as corank reads it), note. Prints one line per check; exits 1 if
// one failed.
import { createRequire } from 'node:module';
import path from 'node:path';

const [modules, input, ...checks] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const value = async (sql) => (await con.runAndReadAll(sql)).getRows()[0][0];
const literal = (s) => `'${s.replaceAll("'", "''")}'`;

await con.run("SET TimeZone = 'UTC'");
// An unquoted empty field is NULL, a quoted "" the empty string (as
// PostgreSQL's COPY and corank read them); quoted fields hold newlines.
const read = (file) => `read_csv(${literal(file)}, header = true, delim = ',', quote = '"', escape = '"',
  allow_quoted_nulls = false, parallel = false,
  columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'amount': 'DOUBLE', 'ts': 'TIMESTAMPTZ', 'note': 'VARCHAR'})`;
await con.run(`CREATE TABLE input AS SELECT * FROM ${read(input)}`);
const rows = await value('SELECT count(*) FROM input');
console.log(`DuckDB ${await value('SELECT version()')}, ${rows} input rows`);

let failures = 0;
const expect = (what, got, want) => {
  if (String(got) === String(want)) return;
  console.log(`FAIL: ${what}: got ${got}, expected ${want}`);
  failures++;
};
for (let i = 0; i + 1 < checks.length; i += 2) {
  const file = checks[i];
  const unlike = checks[i + 1].startsWith('!');
  const order = checks[i + 1].replace(/^!/, '');
  await con.run(`CREATE OR REPLACE TABLE sorted AS SELECT * FROM ${read(file)}`);
  expect(`${order}: rows`, await value('SELECT count(*) FROM sorted'), rows);
  expect(`${order}: rows that differ from the input's`, await value(`SELECT count(*) FROM (
      (SELECT * FROM sorted EXCEPT ALL SELECT * FROM input) UNION ALL
      (SELECT * FROM input EXCEPT ALL SELECT * FROM sorted))`), 0);
  const positions = `SELECT row_number() OVER (ORDER BY rowid) AS file, row_number() OVER (ORDER BY ${order}, id) AS duckdb,
      id, name, amount, ts FROM sorted`;
  const misplaced = await value(`SELECT count(*) FROM (${positions}) WHERE file <> duckdb`);
  if (unlike) {
    if (misplaced > 0) {
      console.log(`ok: not ORDER BY ${order} (${misplaced} rows elsewhere)`);
    } else {
      console.log(`FAIL: ${file} is in DuckDB's ORDER BY ${order}, which it was sorted unlike`);
      failures++;
    }
    continue;
  }
  expect(`${order}: rows out of DuckDB's order`, misplaced, 0);
  if (misplaced > 0) {
    const first = (await con.runAndReadAll(`SELECT * FROM (${positions}) WHERE file <> duckdb ORDER BY file LIMIT 5`));
    console.log('  the first rows out of place (file position, DuckDB position, id, name, amount, ts):');
    for (const row of first.getRowsJson()) console.log('  ' + JSON.stringify(row));
  } else {
    console.log(`ok: ORDER BY ${order}`);
  }
}
process.exit(failures ? 1 : 0);
