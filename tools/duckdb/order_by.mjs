// DuckDB's side of tools/bench-vs-duckdb.sh: builds a table in memory (not
// timed), then times CREATE TABLE ... AS SELECT ... ORDER BY on all threads.
//   node order_by.mjs u64|pairs|gensort N REPEATS
// Prints one line per repeat: "duckdb <case> <seconds>".
import { DuckDBInstance } from '@duckdb/node-api';

const [kind, nArg, repArg] = process.argv.slice(2);
const n = BigInt(nArg);
const repeats = Number(repArg || 1);
const tables = {
  // Uniform 64-bit keys (a hash of the row number), as corank-gen --format u64 draws them.
  u64: `SELECT hash(range) AS k FROM range(${n})`,
  pairs: `SELECT hash(range) AS k, range::UBIGINT AS v FROM range(${n})`,
  // 100-byte rows: a 10-byte random key and a 90-byte payload.
  gensort: `SELECT substr(md5(range::VARCHAR), 1, 10) AS k, repeat('x', 90) AS payload FROM range(${n})`,
};
const sql = tables[kind];
if (!sql) throw new Error(`unknown case ${kind}`);

const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
await db.run(`CREATE TABLE t AS ${sql}`);
for (let r = 0; r < repeats; ++r) {
  await db.run('DROP TABLE IF EXISTS s');
  const t0 = performance.now();
  await db.run('CREATE TABLE s AS SELECT * FROM t ORDER BY k');
  console.log(`duckdb ${kind} ${((performance.now() - t0) / 1000).toFixed(3)}`);
}
