/**
 * The systemd unit an operator copies (docs/atelier.service) and the listening address (issue « Every door holds »,
 * point 5): a unit that names Debian's Node.js 18 starts nothing, one whose ReadWritePaths leaves out BACKUP_DIR
 * fails every backup on a read-only file system, and a server that listens on every interface unless told is
 * open to the network by surprise — so the image and compose, which must listen on their network, say so.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const unit = readFileSync('docs/atelier.service', 'utf8');
const setting = (name: string) =>
	[...unit.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((match) => match[1]!.trim());
const environment = Object.fromEntries(
	setting('Environment').map((pair) => pair.split('=', 2) as [string, string])
);

describe('docs/atelier.service', () => {
	it('runs a Node.js of the line package.json admits, not Debian’s /usr/bin/node (18)', () => {
		const [execStart] = setting('ExecStart');
		const node = execStart!.split(/\s+/)[0]!;
		expect(node).not.toBe('/usr/bin/node');
		const engines = JSON.parse(readFileSync('package.json', 'utf8')).engines.node as string;
		const line = /(\d+)/.exec(engines)![1]!;
		expect(node).toContain(`node-${line}`);
	});

	it('runs npm start’s supervisor, which keeps the socket while upgrades replace the server, and never builds', () => {
		expect(setting('ExecStart')[0]).toMatch(/\sscripts\/start\.mjs --no-build$/);
		expect(readFileSync('docs/operations.md', 'utf8')).toContain(
			'systemctl kill --kill-who=main --signal=SIGUSR2 atelier'
		);
	});

	it('may write DATA_DIR and BACKUP_DIR, and names both', () => {
		const writable = setting('ReadWritePaths').flatMap((paths) => paths.split(/\s+/));
		expect(environment.DATA_DIR).toBeTruthy();
		expect(environment.BACKUP_DIR).toBeTruthy();
		expect(writable).toContain(environment.DATA_DIR);
		expect(writable).toContain(environment.BACKUP_DIR);
		expect(setting('ProtectSystem')).toEqual(['strict']);
	});
});

describe('the listening address', () => {
	it('the image and compose listen on their network (the server alone, on loopback)', () => {
		expect(readFileSync('docker/Dockerfile', 'utf8')).toMatch(/HOST=0\.0\.0\.0/);
		expect(readFileSync('docker/compose.yaml', 'utf8')).toMatch(/HOST: 0\.0\.0\.0/);
	});
});
