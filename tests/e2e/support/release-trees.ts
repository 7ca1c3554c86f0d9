/**
 * The installations the upgrade tests make in the system's temporary folder: this version's files copied in, as a
 * clone (or `git pull`) has them, and a migration added to a release, so that an upgrade migrates and a rollback
 * has something to undo.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve('.');

/** This clone's files (tracked, and new ones git does not ignore), each written into `tree` now; their list. */
export function copyThisVersion(tree: string): string[] {
	const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
		cwd: repo,
		encoding: 'utf8'
	})
		.stdout.split('\0')
		.filter((file) => file && existsSync(path.join(repo, file)));
	const now = new Date();
	for (const file of files) {
		mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
		cpSync(path.join(repo, file), path.join(tree, file));
		utimesSync(path.join(tree, file), now, now);
	}
	return files;
}

/**
 * One more migration in `drizzle` (a tree's, or a build's own): a table `<name>`, and a column of that name on the
 * leads, a table that holds data. Returns its tag.
 */
export function addProbeMigration(drizzle: string, name: string): string {
	const journalFile = path.join(drizzle, 'meta', '_journal.json');
	const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
	const last = journal.entries.at(-1);
	const tag = `${String(last.idx + 1).padStart(4, '0')}_${name}`;
	journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag });
	writeFileSync(journalFile, JSON.stringify(journal, null, 2));
	writeFileSync(
		path.join(drizzle, `${tag}.sql`),
		`CREATE TABLE "${name}" ("id" integer PRIMARY KEY);\n--> statement-breakpoint\n` +
			`ALTER TABLE "leads" ADD COLUMN "${name}" text;`
	);
	return tag;
}

/** What a site in `tree` is started with: its port on the loopback, its folder, its database (PostgreSQL's or none). */
export const siteSettings = (tree: string, port: number, databaseUrl: string | undefined) => ({
	PORT: String(port),
	HOST: '127.0.0.1',
	ORIGIN: `http://127.0.0.1:${port}`,
	DATA_DIR: path.join(tree, 'site-data'),
	DATABASE_URL: databaseUrl ?? '',
	SIGNING_SECRET: ''
});

/** `node <args>` in `tree`, its output kept, its exit code once it exits. */
export function runIn(tree: string, args: string[], env: NodeJS.ProcessEnv) {
	const child: ChildProcess = spawn(process.execPath, args, {
		cwd: tree,
		env,
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	child.stdout!.on('data', (chunk) => (output += chunk));
	child.stderr!.on('data', (chunk) => (output += chunk));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, output: () => output, exited };
}
