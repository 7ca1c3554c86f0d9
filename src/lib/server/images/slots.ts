/**
 * The registry of site image slots: every key a page may show, with its page (by the prefix rule of SEED.md
 * part 2, whose prefixes the page registry holds), its French label (the alt text), the stock image used until
 * an admin sets one, and its display size.
 */
import { pages, type SitePage } from '$lib/pages/registry';

export type { SitePage };

export interface Slot {
	key: string;
	page: SitePage;
	label: string;
	defaultUrl: string;
	width: number;
	height: number;
}

/** SEED.md part 2: `macon_` → /macon, `paysagiste_` → /paysagiste, any other key → /. */
export const pageOfKey = (key: string): SitePage => pages.pageOfKey(key);

const unsplash = (id: string, width: number, height: number) =>
	`https://images.unsplash.com/${id}?auto=format&fit=crop&w=${width}&h=${height}&q=80`;

const slot = (key: string, label: string, photo: string, width: number, height: number): Slot => ({
	key,
	page: pageOfKey(key),
	label,
	defaultUrl: unsplash(photo, width, height),
	width,
	height
});

export const SLOTS: readonly Slot[] = [
	slot(
		'hero',
		'Artisan présentant son nouveau site internet sur un ordinateur portable',
		'photo-1556761175-5973dc0f32e7',
		1600,
		900
	),
	slot(
		'about',
		'L’équipe Atelier autour d’une table de travail',
		'photo-1522071820081-009f0129c71c',
		1200,
		800
	),
	slot('service_1', 'Maquette d’un site vitrine sur écran', 'photo-1460925895917-afdab827c52f', 800, 600),
	slot(
		'service_2',
		'Artisan consultant ses demandes de devis sur son téléphone',
		'photo-1512941937669-90a1b58e7e9c',
		800,
		600
	),
	slot('service_3', 'Carte de référencement local sur un écran', 'photo-1524661135-423995f22d0b', 800, 600),
	slot(
		'training',
		'Séance de formation en ligne pour artisans',
		'photo-1516321318423-f06f85e504b3',
		1200,
		800
	),
	slot('macon_hero', 'Maçon montant un mur en pierre', 'photo-1504307651254-35680f356dfd', 1600, 900),
	slot(
		'macon_about',
		'Le maçon et son équipe sur un chantier',
		'photo-1541888946425-d81bb19240f5',
		1200,
		800
	),
	slot('macon_gallery_1', 'Mur en pierres apparentes restauré', 'photo-1590644365607-1c5a519a7a37', 800, 600),
	slot('macon_gallery_2', 'Terrasse maçonnée avec escalier', 'photo-1600585154340-be6161a56a0c', 800, 600),
	slot(
		'macon_gallery_3',
		'Façade de maison en briques rénovée',
		'photo-1513584684374-8bab748fbf90',
		800,
		600
	),
	slot(
		'paysagiste_hero',
		'Jardin paysager avec allée et massifs fleuris',
		'photo-1558904541-efa843a96f01',
		1600,
		900
	),
	slot('paysagiste_about', 'Le paysagiste taillant une haie', 'photo-1416879595882-3373a0480b5b', 1200, 800),
	slot('paysagiste_gallery_1', 'Massif de vivaces en fleurs', 'photo-1585320806297-9794b3e4eeae', 800, 600),
	slot('paysagiste_gallery_2', 'Pelouse et terrasse en bois', 'photo-1598902108854-10e335adac99', 800, 600),
	slot(
		'paysagiste_gallery_3',
		'Bassin d’ornement entouré de plantes',
		'photo-1599629954294-14df9ec8bc03',
		800,
		600
	)
];

const byKey = new Map(SLOTS.map((s) => [s.key, s]));

export function slotOf(key: string): Slot | null {
	return byKey.get(key) ?? null;
}

export function slotsOfPage(page: SitePage): Slot[] {
	return SLOTS.filter((s) => s.page === page);
}

export const PAGE_LABELS = Object.fromEntries(pages.slotPages.map((p) => [p.path, p.label])) as Record<
	SitePage,
	string
>;
