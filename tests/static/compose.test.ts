/**
 * docker/compose.yaml as a self-hosting team runs it (issue "Self-hosting, part 1", point 4): pinned images,
 * required secrets with a message, every documented setting passed through from .env, SMTP the user's, the
 * storage server's secrets kept from the app, a grace period that covers the drain, rotated logs. No image can be
 * pulled here, so the file is checked statically; each rule is also broken on purpose to prove the check sees it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeProblems, documentedVariables, envExampleVariables, type ComposeInputs } from './compose-rules';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const real: ComposeInputs = {
	compose: read('docker/compose.yaml'),
	documented: documentedVariables(read('README.md')),
	envExample: envExampleVariables(read('.env.example')),
	envExampleText: read('.env.example')
};
const broken = (from: string, to: string): ComposeInputs => {
	expect(real.compose).toContain(from);
	return { ...real, compose: real.compose.replace(from, to) };
};

describe('docker/compose.yaml', () => {
	it('reads the documented variables from the README and .env.example', () => {
		expect(real.documented).toEqual(expect.arrayContaining(['ORIGIN', 'SMTP_URL', 'SIGNING_SECRET', 'ADDRESS_HEADER', 'XFF_DEPTH']));
		expect(real.documented.length).toBeGreaterThan(20);
		expect(real.envExample).toEqual(expect.arrayContaining(real.documented));
	});

	it('keeps every rule', () => {
		expect(composeProblems(real)).toEqual([]);
	});

	it('refuses an image on latest or without a version', () => {
		expect(composeProblems(broken('postgres:16.11-alpine', 'postgres:latest'))).toEqual(
			expect.arrayContaining(['image on latest: postgres', 'image not pinned to a version: postgres (postgres:latest)'])
		);
		expect(composeProblems(broken('dxflrs/garage:v2.1.0', 'dxflrs/garage'))).toContain('image on latest: garage');
	});

	it('refuses a default secret and a required one that does not say what to set', () => {
		const defaulted = broken('${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD', '${POSTGRES_PASSWORD:-atelier}${X:?set X');
		expect(composeProblems(defaulted)).toContain('default secret: POSTGRES_PASSWORD');
		const silent = broken(/\$\{GARAGE_RPC_SECRET:\?[^}]*\}/.exec(real.compose)![0], '${GARAGE_RPC_SECRET:?}');
		expect(composeProblems(silent)).toContain('required secret without a message saying what to set: GARAGE_RPC_SECRET');
		const written = broken('POSTGRES_USER: atelier', 'POSTGRES_USER: atelier\n      MINIO_ROOT_PASSWORD: hunter2');
		expect(composeProblems(written)).toContain('secret written in the file: postgres.MINIO_ROOT_PASSWORD');
	});

	it('refuses an app that does not read .env, or a documented setting the file overrides', () => {
		expect(composeProblems(broken('path: ../.env', 'path: ../app.env'))).toContain('the app does not read .env (env_file)');
		const overridden = broken('      STORAGE_DRIVER: s3\n', '      STORAGE_DRIVER: s3\n      SITE_MODE: platform\n');
		expect(composeProblems(overridden)).toContain('documented variable overridden by the file: SITE_MODE');
	});

	it('refuses a hard-coded mail server and a mail catcher outside a profile', () => {
		const smtp = /SMTP_URL: \$\{SMTP_URL:\?[^}]*\}/.exec(real.compose)![0];
		expect(composeProblems(broken(smtp, 'SMTP_URL: smtp://mailpit:1025'))).toContain(
			'SMTP_URL is not the user’s (required from .env)'
		);
		expect(composeProblems(broken("    profiles: ['try']\n", ''))).toContain('mail catcher outside a profile: mailpit');
	});

	it("refuses to hand the storage server's or the database's secrets to the app", () => {
		expect(composeProblems(broken("      GARAGE_ADMIN_TOKEN: ''\n", ''))).toContain(
			"the app may receive garage's GARAGE_ADMIN_TOKEN"
		);
		expect(composeProblems(broken("      POSTGRES_PASSWORD: ''\n", ''))).toContain(
			"the app may receive postgres's POSTGRES_PASSWORD"
		);
	});

	it('refuses a grace period shorter than the drain, and a service whose logs are not rotated', () => {
		expect(composeProblems(broken('stop_grace_period: 30s\n    logging: *logging\n    depends_on:\n      postgres', 'stop_grace_period: 10s\n    logging: *logging\n    depends_on:\n      postgres'))).toContain(
			"stop_grace_period does not cover the app's drain (15 s)"
		);
		expect(composeProblems(broken('    logging: *logging\n\nvolumes:', '\nvolumes:'))).toContain('logs not rotated: grafana');
	});

	it('refuses a variable that compose reads and .env.example does not list', () => {
		const envExample = real.envExample.filter((name) => name !== 'GARAGE_ADMIN_TOKEN');
		expect(composeProblems({ ...real, envExample })).toContain('.env.example does not list GARAGE_ADMIN_TOKEN');
	});

	it('refuses to start without the site’s address, its sender and the leads’ recipient, and tls without a domain', () => {
		for (const variable of ['ORIGIN', 'MAIL_FROM', 'ADMIN_EMAIL']) {
			const required = new RegExp(`${variable}: \\$\\{${variable}:\\?[^}]*\\}`).exec(real.compose)![0];
			expect(composeProblems(broken(required, `${variable}: \${${variable}:-}`))).toContain(
				`${variable} is not required with a message`
			);
			expect(
				composeProblems({ ...real, envExampleText: real.envExampleText!.replace(`${variable}=`, `${variable}=x@y.fr`) })
			).toContain(`.env.example pre-fills ${variable}`);
		}
		expect(composeProblems(broken('[ -n "$$SITE_DOMAIN" ] || ', ''))).toContain('the tls proxy starts without SITE_DOMAIN');
	});

	it('runs Garage so that what it acknowledges survives a power cut, with metadata snapshots', () => {
		const garage = read('docker/garage.toml');
		expect(garage).toMatch(/^replication_factor = 1$/m);
		expect(garage).toMatch(/^metadata_fsync = true$/m);
		expect(garage).toMatch(/^data_fsync = true$/m);
		expect(garage).toMatch(/^metadata_auto_snapshot_interval = "\d+h"$/m);
	});
});
