import { describe, expect, it } from 'vitest';
import { backupFileName } from './backup';
import {
	backupsToRemove,
	describeKeepPolicy,
	parseKeepPolicy,
	scheduledBackupOf,
	scheduledKind
} from './retention';

const at = (iso: string) => ({ name: iso, at: new Date(iso) });

describe('BACKUP_KEEP', () => {
	it('reads days, weeks, months and a bare count, and refuses anything else', () => {
		expect(parseKeepPolicy('7d,4w,6m')).toEqual({ last: 0, daily: 7, weekly: 4, monthly: 6 });
		expect(parseKeepPolicy(' 14d ')).toEqual({ last: 0, daily: 14, weekly: 0, monthly: 0 });
		expect(parseKeepPolicy('3')).toEqual({ last: 3, daily: 0, weekly: 0, monthly: 0 });
		for (const bad of ['', '0', '7x', '7d,7d', 'd', '7 days', '-1', '0d,0w'])
			expect(parseKeepPolicy(bad), bad).toBeNull();
		expect(describeKeepPolicy(parseKeepPolicy('7d,4w,6m')!)).toBe(
			'une par jour sur 7 jours, une par semaine sur 4 semaines et une par mois sur 6 mois'
		);
	});

	it('keeps the newest of each of the last days, weeks and months, and removes the rest', () => {
		// Two a day for 40 days, newest first in no particular order.
		const backups = [];
		for (let day = 0; day < 40; day++)
			for (const hour of ['03', '15'])
				backups.push(at(new Date(Date.UTC(2026, 10, 26 - day, Number(hour))).toISOString()));
		const removed = backupsToRemove(backups.reverse(), parseKeepPolicy('7d,4w,2m')!);
		const kept = backups.filter((b) => !removed.includes(b)).map((b) => b.name);
		// 7 days: the 15:00 one of 20–26 November; 4 ISO weeks (Monday to Sunday): the 26th (kept already), Sundays
		// 22, 15 and 8 November; 2 months: November's newest (kept already) and October's (31 Oct, 15:00).
		expect(kept.sort()).toEqual(
			[
				'2026-10-31T15:00:00.000Z',
				'2026-11-08T15:00:00.000Z',
				'2026-11-15T15:00:00.000Z',
				...[20, 21, 22, 23, 24, 25, 26].map((d) => `2026-11-${d}T15:00:00.000Z`)
			].sort()
		);
		expect(removed).toHaveLength(80 - kept.length);
	});

	it('a bare count keeps that many of the newest, and never fewer than the newest one', () => {
		const backups = ['2026-11-01', '2026-11-03', '2026-11-02', '2026-11-04'].map((d) => at(`${d}T03:00:00Z`));
		expect(backupsToRemove(backups, parseKeepPolicy('2')!).map((b) => b.name)).toEqual([
			'2026-11-02T03:00:00Z',
			'2026-11-01T03:00:00Z'
		]);
		expect(backupsToRemove(backups.slice(0, 1), { last: 0, daily: 0, weekly: 0, monthly: 0 })).toEqual([]);
	});

	it('knows only the scheduled backups’ names, and the installation each names: a hand-made or pre-upgrade one is never removed', () => {
		const slot = new Date('2026-11-26T03:00:00Z');
		const ours = backupFileName(slot, scheduledKind('0123456789ab'), true);
		expect(ours).toBe('atelier-scheduled-0123456789ab-2026-11-26T03-00-00Z.tar.gz.age');
		expect(scheduledBackupOf(ours)).toEqual({ at: slot, installation: '0123456789ab' });
		// Named before installations had ids: a date, and nobody's.
		expect(scheduledBackupOf(backupFileName(slot, 'scheduled', true))).toEqual({
			at: slot,
			installation: null
		});
		for (const other of [
			backupFileName(slot),
			backupFileName(slot, 'backup', true),
			backupFileName(slot, 'before-0.4.0', true),
			`${ours}.partial`,
			`${ours}.pending`,
			'atelier-scheduled-2026-13-45T03-00-00Z.tar.gz.age',
			'atelier-scheduled-0123456789AB-2026-11-26T03-00-00Z.tar.gz.age'
		])
			expect(scheduledBackupOf(other), other).toBeNull();
	});
});
