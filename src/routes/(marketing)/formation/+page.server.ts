import * as courses from '$lib/server/courses';
import * as training from '$lib/server/training';
import type { PageServerLoad } from './$types';

/**
 * The programme sheet (issue « Formation, part 1 », point 1): what Qualiopi's indicator 1 asks an offer to publish,
 * from the course's settings and published modules, and indicator 2's figures computed now. An empty field is left
 * out (the admin is told in /admin/cours).
 */
export const load: PageServerLoad = async () => {
	const [settings, modules, figures] = await Promise.all([
		courses.settings(),
		courses.list(),
		training.figures()
	]);
	const published = modules.filter((m) => m.published);
	return {
		sheet: {
			...courses.programmeSheetOf(settings),
			positioning: !!settings.positioning,
			quizzes: published.some((m) => m.quiz),
			// The latest change of the settings or a published module; none on a new site (its settings unsaved).
			updatedAt:
				[settings.updatedAt, ...published.map((m) => m.updatedAt)]
					.filter((at) => at.getTime() > 0)
					.sort((a, b) => b.getTime() - a.getTime())[0]
					?.toISOString() ?? null
		},
		modules: published.map((m) => ({
			title: m.title,
			summary: m.summary,
			durationMinutes: m.durationMinutes
		})),
		totalMinutes: published.reduce((sum, m) => sum + m.durationMinutes, 0),
		figures,
		figuresFrom: training.FIGURES_FROM_LEARNERS
	};
};
