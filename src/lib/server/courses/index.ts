/**
 * Course modules: the domain's whole public surface, bound to the application's services (app.ts). Routes call
 * these; tests call service.ts with their own database. Who may read is `memberships.accessOf`.
 */
import type { ModuleCreate, ModuleUpdate } from '$lib/schemas/modules';
import { appDeps } from '../app';
import type { Actor } from '../audit/service';
import * as service from './service';

const db = () => appDeps().db;

export const list = () => service.listModules(db());
export const count = () => service.countModules(db());
export const create = (input: ModuleCreate, admin: Actor) => service.createModule(db(), input, admin);
export const get = (id: string) => service.getModule(db(), id);
export const update = (id: string, changes: ModuleUpdate, admin: Actor) =>
	service.updateModule(db(), id, changes, admin);
export const remove = (id: string, admin: Actor) => service.deleteModule(db(), id, admin);
export const move = (id: string, direction: 'up' | 'down', admin: Actor) =>
	service.moveModule(db(), id, direction, admin);
export const reorder = (ids: string[], admin: Actor) => service.reorderModules(db(), ids, admin);
export const progressOf = (userId: string) => service.progressOf(db(), userId);
export const page = (slug: string, reader: { id: string; isAdmin: boolean }) =>
	service.modulePage(db(), slug, reader);
export const complete = (userId: string, slug: string) => service.completeModule(db(), userId, slug);
export const undo = (userId: string, slug: string) => service.undoModule(db(), userId, slug);

export type { Progress, ModuleState } from './service';
export type { Module } from './queries';
