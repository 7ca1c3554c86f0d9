import { describe, expect, it } from 'vitest';
import { learnersPage, type Learner, type LearnersReport } from './learners';

const learner = (i: number): Learner => ({
	id: `id-${i}`,
	name: i % 2 ? `Élodie Martin ${i}` : `Paul Durand ${i}`,
	email: `membre${i}@exemple.fr`,
	following: true,
	completed: 1,
	total: 5,
	percent: 20,
	quizzesPassed: 0,
	quizzes: 1,
	attempts: 0,
	lastActivity: new Date('2026-01-01'),
	active: true,
	stuck: i % 3 === 0,
	daysIdle: 30
});
const report: LearnersReport = {
	learners: Array.from({ length: 5000 }, (_, i) => learner(i)),
	modules: [],
	following: 5000,
	stuck: 1667,
	finished: 0
};

describe('the follow-up, a page at a time', () => {
	it('renders at most a page of members, whatever their number, and says how many match', () => {
		const first = learnersPage(report, { stuckOnly: false, page: 1 });
		expect(first.learners).toHaveLength(50);
		expect(first.pagination).toEqual({ total: 5000, page: 1, pages: 100, pageSize: 50 });
		const past = learnersPage(report, { stuckOnly: false, page: 500 });
		expect(past.pagination.page).toBe(100);
		expect(past.learners.at(-1)!.id).toBe('id-4999');
	});

	it('finds a member by name or e-mail, any case, and narrows to the stuck ones', () => {
		expect(learnersPage(report, { search: 'MEMBRE4242@', stuckOnly: false, page: 1 }).learners).toEqual([
			learner(4242)
		]);
		const elodie = learnersPage(report, { search: 'élodie', stuckOnly: false, page: 1 });
		expect(elodie.pagination.total).toBe(2500);
		const stuck = learnersPage(report, { search: 'élodie', stuckOnly: true, page: 1 });
		expect(stuck.learners.every((l) => l.stuck && l.name.startsWith('Élodie'))).toBe(true);
		expect(stuck.pagination.total).toBe(
			report.learners.filter((l) => l.stuck && l.id.match(/[13579]$/)).length
		);
		expect(learnersPage(report, { search: 'personne', stuckOnly: false, page: 1 }).pagination).toEqual({
			total: 0,
			page: 1,
			pages: 1,
			pageSize: 50
		});
	});
});
