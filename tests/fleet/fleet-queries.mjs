// SPDX-License-Identifier: GPL-2.0
// fleet-queries.mjs - docs/fleet.md's DuckDB queries, run over an exported
// fleet, each answer checked against what `fence-trace report --json` says
// of the same captures (and the regressions against the generator's list).
// TAP on stdout, plan first.
//
//   node fleet-queries.mjs DOCS_FLEET_MD FLEET_DIR TABLES_DIR FENCE_TRACE
//   node fleet-queries.mjs --times ROUNDS DOCS_FLEET_MD TABLES_DIR
//
// --times (tests/bench/fleet-bench): no checks, each query ROUNDS times in
// a fresh DuckDB, one line each: "NAME: best MS ms, median MS ms".
//
// FLEET_DIR is fleet-synth's: run-NNNN.dat, fleet.tsv (run, host, kernel),
// regressed.txt.  The sql blocks of the page run in order; 'fleet/' in them
// is TABLES_DIR/.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const timing = process.argv[2] === '--times';
const [docsPath, fleetDir, tablesDir, ft] = timing ?
	[process.argv[4], null, process.argv[5], null] : process.argv.slice(2);
const checks = ['p99_by_driver_kernel', 'late_rate_by_class_kernel', 'regressed_runs',
	'regressed_runs_are_the_injected', 'top_blocking_timelines'];
let n = 0, failed = 0;

function ok(pass, what, detail) {
	n++;
	console.log(`${pass ? 'ok' : 'not ok'} ${n} - ${what}`);
	if (!pass) {
		failed++;
		for (const line of String(detail ?? '').split('\n').slice(0, 30))
			console.log(`#   ${line}`);
	}
}

// The page's sql blocks: { name, statements }.
function queries(md) {
	return [...md.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => {
		const sql = m[1].replaceAll("'fleet/", `'${tablesDir}/`);
		return { name: (sql.match(/^-- name: (\w+)/m) || [])[1],
			 statements: sql.split(/;\s*\n/).map((s) => s.trim()).filter((s) => s && !/^(--[^\n]*\n?)+$/.test(s)) };
	});
}

// Every capture's report --json, a few at a time.
async function reports(runs) {
	const out = new Map();
	const queue = [...runs];
	async function worker() {
		for (let r; (r = queue.shift());) {
			const { stdout } = await run(ft, ['report', '--json', `${fleetDir}/${r}.dat`],
				{ maxBuffer: 64 << 20 });
			out.set(r, JSON.parse(stdout));
		}
	}
	await Promise.all([1, 2, 3, 4].map(worker));
	return out;
}

const bucketOf = (fromNs) => (fromNs === 0 ? 0 : Math.round(Math.log2(fromNs)));

// What report --json says, grouped as each query groups.
function expected(meta, reps, baselineKernel) {
	const lat = new Map(), rate = new Map(), perRun = [], block = new Map();
	for (const [runName, r] of reps) {
		const { kernel, host } = meta.get(runName);
		for (const t of [...r.timelines, ...r.timeline_groups]) {
			const key = `${kernel}\t${t.driver}`;
			const b = lat.get(key) ?? new Array(64).fill(0);
			for (const s of t.signal_latency_log2)
				b[bucketOf(s.from_ns)] += s.count;
			lat.set(key, b);
		}
		let late = 0, judged = 0;
		for (const f of r.frames) {
			late += f.late;
			judged += f.judged;
			for (const [cls, k] of Object.entries(f.late_by_class)) {
				const key = `${kernel}\t${cls}`;
				const v = rate.get(key) ?? { late: 0, judged: 0 };
				v.late += k;
				v.judged += f.judged;
				rate.set(key, v);
			}
			for (const l of f.late_frames) {
				if (!l.blocking)
					continue;
				const key = `${l.blocking.driver}\t${l.blocking.timeline}`;
				const v = block.get(key) ?? { late: 0, runs: new Set(), waited: 0 };
				v.late++;
				v.runs.add(runName);
				v.waited += l.blocking.wait_ns;
				block.set(key, v);
			}
		}
		if (judged > 0)
			perRun.push({ kernel, host, run: runName, late, judged });
	}
	const p99 = [...lat].filter(([, b]) => b.some((x) => x)).map(([key, b]) => {
		const total = b.reduce((a, x) => a + x, 0), rank = Math.ceil(0.99 * total);
		let below = 0, bucket = 0;
		for (; bucket < 64 && (below += b[bucket]) < rank; bucket++)
			;
		const [kernel, driver] = key.split('\t');
		return { kernel, driver, fences: total, p99_bucket: bucket };
	}).sort((a, b) => (a.kernel + '\t' + a.driver).localeCompare(b.kernel + '\t' + b.driver));
	const base = perRun.filter((p) => p.kernel === baselineKernel);
	const baseRate = base.reduce((a, p) => a + p.late, 0) / base.reduce((a, p) => a + p.judged, 0);
	const regressed = perRun.filter((p) => p.late / p.judged > 2 * baseRate &&
		p.late - p.judged * baseRate > 3 * Math.sqrt(p.judged * baseRate * (1 - baseRate)))
		.map((p) => p.run).sort();
	const top = [...block].map(([key, v]) => {
		const [driver, timeline] = key.split('\t');
		return { driver, timeline, late_frames: v.late, runs: v.runs.size, waited_ns: v.waited };
	}).sort((a, b) => b.late_frames - a.late_frames || a.driver.localeCompare(b.driver) ||
		a.timeline.localeCompare(b.timeline)).slice(0, 10);
	return { p99, rate, regressed, top };
}

function same(got, want) {
	const g = JSON.stringify(got), w = JSON.stringify(want);
	return [g === w, `got  ${g.slice(0, 1500)}\nwant ${w.slice(0, 1500)}`];
}

async function main() {
	const qs = queries(readFileSync(docsPath, 'utf8'));
	console.log(`1..${qs.length + checks.length}`);
	const meta = new Map(readFileSync(`${fleetDir}/fleet.tsv`, 'utf8').trim().split('\n')
		.map((l) => l.split('\t')).map(([r, host, kernel]) => [r, { host, kernel }]));
	const injected = readFileSync(`${fleetDir}/regressed.txt`, 'utf8').trim().split('\n').sort();
	const db = await (await DuckDBInstance.create(':memory:')).connect();
	const answers = new Map();
	for (const q of qs) {
		const t0 = process.hrtime.bigint();
		try {
			let reader;
			for (const s of q.statements)
				reader = await db.runAndReadAll(s);
			answers.set(q.name, reader.getRowObjectsJson());
			const ms = Number(process.hrtime.bigint() - t0) / 1e6;
			ok(true, `docs/fleet.md: query ${q.name} runs (${answers.get(q.name).length} rows, ${ms.toFixed(0)} ms)`);
		} catch (e) {
			ok(false, `docs/fleet.md: query ${q.name} runs`, e.message);
		}
	}
	const baseline = (readFileSync(docsPath, 'utf8').match(/baseline_kernel = '([^']+)'/) || [])[1];
	const want = expected(meta, await reports([...meta.keys()]), baseline);

	const p99 = (answers.get('p99_by_driver_kernel') ?? []).map((r) => ({ kernel: r.kernel,
		driver: r.driver, fences: Number(r.fences), p99_bucket: Number(r.p99_bucket) }));
	ok(...swap(same(p99, want.p99), `p99 per driver and kernel (${want.p99.length} groups) = report --json's log2 buckets summed`));
	const rates = (answers.get('late_rate_by_class_kernel') ?? []).map((r) => {
		const w = want.rate.get(`${r.kernel}\t${r.class.replace('late_', '')}`) ?? {};
		return Number(r.late_frames) === w.late && Number(r.judged) === w.judged &&
			Math.abs(Number(r.rate) - w.late / w.judged) < 1e-12;
	});
	ok(rates.length === want.rate.size && rates.every((x) => x),
	   `late-frame rate per class per kernel (${want.rate.size} rows) = report --json's frames counts`,
	   `${rates.filter((x) => !x).length} rows differ of ${rates.length}, want ${want.rate.size}`);
	const reg = (answers.get('regressed_runs') ?? []).map((r) => r.run);
	ok(...swap(same(reg, want.regressed), `regressed runs = the rule applied to report --json (${want.regressed.length} runs)`));
	ok(...swap(same(reg, injected), 'regressed runs = the runs fleet-synth made regress, and no other'));
	const top = (answers.get('top_blocking_timelines') ?? []).map((r) => ({ driver: r.driver,
		timeline: r.timeline, late_frames: Number(r.late_frames), runs: Number(r.runs),
		waited_ns: Number(r.waited_ns) }));
	ok(...swap(same(top, want.top), 'top blocking timelines = report --json late frames\' blocking fences'));
	process.exitCode = failed ? 1 : 0;
}

// [pass, detail] and a title as ok()'s arguments.
function swap([pass, detail], what) {
	return [pass, what, detail];
}

// Each query (after the views) ROUNDS times, each round in a fresh database.
async function times(rounds) {
	const qs = queries(readFileSync(docsPath, 'utf8'));
	const ms = new Map();
	for (let r = 0; r < rounds; r++) {
		const db = await (await DuckDBInstance.create(':memory:')).connect();
		for (const q of qs) {
			const t0 = process.hrtime.bigint();
			for (const s of q.statements)
				await db.runAndReadAll(s);
			ms.set(q.name, [...(ms.get(q.name) ?? []), Number(process.hrtime.bigint() - t0) / 1e6]);
		}
	}
	for (const [name, t] of ms) {
		t.sort((a, b) => a - b);
		console.log(`${name}: best ${t[0].toFixed(0)} ms, median ${t[t.length >> 1].toFixed(0)} ms`);
	}
}

(timing ? times(Number(process.argv[3]) || 3) : main()).catch((e) => {
	console.log(`not ok ${n + 1} - fleet-queries: ${e.message}`);
	process.exitCode = 1;
});
