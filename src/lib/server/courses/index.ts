/**
 * Course modules: the domain's whole public surface, bound to the application's services (app.ts). Routes call
 * these; tests call service.ts with their own database. Who may read is `memberships.accessOf`.
 */
import type postgres from 'postgres';
import type { ModuleCreate, ModuleUpdate } from '$lib/schemas/modules';
import { appDeps } from '../app';
import type { Actor } from '../audit/service';
import type { Db } from '../db';
import { ReaderCache } from './reader-cache';
import * as service from './service';

const db = () => appDeps().db;

/** One reader cache per database: the application's, or a test's own (useDepsForTests). */
const readerCaches = new WeakMap<Db, ReaderCache>();
function readers(): ReaderCache {
	const database = db();
	let cache = readerCaches.get(database);
	if (!cache) readerCaches.set(database, (cache = new ReaderCache()));
	return cache;
}

/** At start-up (hooks.server.ts): hear the other instances' course changes (PostgreSQL; `null` on PGlite). */
export const listenForChanges = (client: postgres.Sql | null) => readers().listen(client);

export const list = () => service.listModules(db());
export const count = () => service.countModules(db());
export const create = (input: ModuleCreate, admin: Actor) =>
	service.createModule(db(), readers(), input, admin);
export const get = (id: string) => service.getModule(db(), id);
export const update = (id: string, changes: ModuleUpdate, admin: Actor) =>
	service.updateModule(db(), readers(), id, changes, admin);
export const remove = (id: string, admin: Actor) => service.deleteModule(db(), readers(), id, admin);
export const move = (id: string, direction: 'up' | 'down', admin: Actor) =>
	service.moveModule(db(), readers(), id, direction, admin);
export const reorder = (ids: string[], admin: Actor) => service.reorderModules(db(), readers(), ids, admin);
export const progressOf = (userId: string) => service.progressOf(db(), readers(), userId);
export const page = (slug: string, reader: { id: string; isAdmin: boolean }) =>
	service.modulePage(db(), readers(), slug, reader);
export const complete = (userId: string, slug: string) =>
	service.completeModule(db(), readers(), userId, slug);
export const undo = (userId: string, slug: string) => service.undoModule(db(), readers(), userId, slug);

export type { Progress, ModuleState } from './service';
export type { Module } from './queries';
