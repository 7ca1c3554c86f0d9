/**
 * The company file as every page, e-mail and document reads it: the live revision of the `company` entry
 * (issue « Content, part 1 »), the seed until the server has read it. Client-safe.
 *
 * One object for the whole process, changed in place: the server entry and the SvelteKit app are two bundles
 * (src/lib/process-wide.js says why), and a module variable would be two. The content domain calls
 * `showCompany` when it reads the live revision (at start and after every purge, so on every instance); the root
 * layout hands it to the browser for the pages that run there. Read it where it is used (`company.brand` inside
 * a function or a template), never copied into a module constant, or an edit would not reach that copy.
 */
import { companySeed } from '$content/agency/company';
import { processWide } from './process-wide';

type Texts<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
export type Company = Texts<typeof companySeed>;

export const company: Company = processWide<Company>('company').ensure(() => structuredClone(companySeed));

interface ProgrammeName {
	/** The company file's name for the programme. */
	file: string;
	/** The one the admin gave it in /admin/cours; null until then. */
	admin: string | null;
	/** Told when the name every page says changes (the pages' cache keeps the old one until then). */
	renamed: Set<() => void>;
}
const programme = processWide<ProgrammeName>('programme-name').ensure(() => ({
	file: company.training.name,
	admin: null,
	renamed: new Set()
}));

/** Makes `next` what everything reads (in place: every importer holds this one object). */
export function showCompany(next: Company): void {
	assignDeep(company, next);
	programme.file = company.training.name;
	company.training.name = programme.admin ?? programme.file;
}

/**
 * The programme has one name (issue « Experience, part 4 »): the one the admin gives it with the course (/admin/cours,
 * printed on the attestation), which every page, e-mail and document then says through `company.training.name`;
 * until then (null), the company file's. The courses domain calls this whenever it reads its settings.
 */
export function showProgrammeName(adminName: string | null): void {
	const before = company.training.name;
	programme.admin = adminName;
	company.training.name = adminName ?? programme.file;
	if (company.training.name !== before) for (const listener of programme.renamed) listener();
}

/**
 * Calls `listener` each time the programme's name changes in this process (each instance reads the course's settings
 * again when any of them saves them). Returns how to stop.
 */
export function onProgrammeRenamed(listener: () => void): () => void {
	programme.renamed.add(listener);
	return () => programme.renamed.delete(listener);
}

/** The company file's own name for the programme: the course's name until the admin gives it one. */
export const companyFileProgrammeName = (): string => programme.file;

function assignDeep(target: Record<string, unknown>, source: Record<string, unknown>) {
	for (const [key, value] of Object.entries(source)) {
		if (value && typeof value === 'object' && target[key] && typeof target[key] === 'object')
			assignDeep(target[key] as Record<string, unknown>, value as Record<string, unknown>);
		else target[key] = value;
	}
}

/** « 12 rue de la Charité, 69002 Lyon » */
export const companyAddressLine = (): string =>
	`${company.address.street}, ${company.address.postalCode} ${company.address.city}`;
