/**
 * Which scheduled backups to keep (`BACKUP_KEEP`), as restic's and borg's « keep » policies do it: `7d,4w,6m` keeps
 * the newest backup of each of the last 7 days that have one, of the last 4 ISO weeks and of the last 6 months
 * (a backup can count for several); a bare number keeps that many of the newest. Applied only after a backup
 * succeeded, so that a run of failures never empties the folder; the newest backup is always kept.
 */

export { DEFAULT_KEEP, parseKeepPolicy, type KeepPolicy } from '../backup-settings';
import type { KeepPolicy } from '../backup-settings';

/** In words, for the admin page: « les 7 derniers jours, 4 semaines et 6 mois ». */
export function describeKeepPolicy(policy: KeepPolicy): string {
	const parts = [
		policy.last && `les ${policy.last} plus récentes`,
		policy.daily && `une par jour sur ${policy.daily} jour${policy.daily > 1 ? 's' : ''}`,
		policy.weekly && `une par semaine sur ${policy.weekly} semaine${policy.weekly > 1 ? 's' : ''}`,
		policy.monthly && `une par mois sur ${policy.monthly} mois`
	].filter(Boolean);
	return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} et ${parts.at(-1)}` : String(parts[0]);
}

export interface Dated {
	name: string;
	at: Date;
}

/** The backups to remove: everything the policy does not keep. Days, weeks and months are UTC ones. */
export function backupsToRemove<T extends Dated>(backups: readonly T[], policy: KeepPolicy): T[] {
	const newestFirst = [...backups].sort((a, b) => b.at.getTime() - a.at.getTime());
	const kept = new Set<T>(newestFirst.slice(0, Math.max(1, policy.last)));
	const keepOnePer = (count: number, period: (at: Date) => string) => {
		const seen = new Set<string>();
		for (const backup of newestFirst) {
			if (seen.size >= count) break;
			const key = period(backup.at);
			if (seen.has(key)) continue;
			seen.add(key);
			kept.add(backup);
		}
	};
	keepOnePer(policy.daily, (at) => at.toISOString().slice(0, 10));
	keepOnePer(policy.weekly, isoWeek);
	keepOnePer(policy.monthly, (at) => at.toISOString().slice(0, 7));
	return newestFirst.filter((backup) => !kept.has(backup));
}

/** `2026-W48`: ISO 8601 week (Monday first; week 1 holds the year's first Thursday). */
function isoWeek(at: Date): string {
	const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
	const weekday = day.getUTCDay() || 7;
	day.setUTCDate(day.getUTCDate() + 4 - weekday);
	const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
	const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
	return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** A scheduled backup's name, read: its date, and the installation that made it (null for names before 0.6.0). */
export interface ScheduledName {
	at: Date;
	installation: string | null;
}

/**
 * `atelier-scheduled-<installation>-2026-11-25T03-00-00Z.tar.gz.age` → its date and installation; names written
 * before installations had ids (`atelier-scheduled-2026-…`) have none: nobody's, so never removed. Null for any
 * other name (a backup by hand, before an upgrade, a partial file).
 */
export function scheduledBackupOf(name: string): ScheduledName | null {
	const match =
		/^atelier-scheduled-(?:([0-9a-f]{12})-)?(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.tar\.gz\.age$/.exec(
			name
		);
	if (!match) return null;
	const at = new Date(`${match[2]}T${match[3]}:${match[4]}:${match[5]}Z`);
	return Number.isNaN(at.getTime()) ? null : { at, installation: match[1] ?? null };
}

/** The kind part of a scheduled backup's name (backupFileName): it carries the installation's id. */
export const scheduledKind = (installation: string) => `scheduled-${installation}`;
