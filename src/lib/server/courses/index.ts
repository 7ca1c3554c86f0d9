/**
 * Course modules: the domain's whole public surface, bound to the application's services (app.ts). Routes call
 * these; tests call service.ts with their own database. Who may read is `memberships.accessOf`.
 */
import type { ModuleCreate, ModuleUpdate } from '$lib/schemas/modules';
import { appDeps } from '../app';
import * as service from './service';

const db = () => appDeps().db;

export const list = () => service.listModules(db());
export const count = () => service.countModules(db());
export const create = (input: ModuleCreate) => service.createModule(db(), input);
export const get = (id: string) => service.getModule(db(), id);
export const update = (id: string, changes: ModuleUpdate) => service.updateModule(db(), id, changes);
export const remove = (id: string) => service.deleteModule(db(), id);
export const move = (id: string, direction: 'up' | 'down') => service.moveModule(db(), id, direction);
export const reorder = (ids: string[]) => service.reorderModules(db(), ids);
export const progressOf = (userId: string) => service.progressOf(db(), userId);
export const page = (slug: string, reader: { id: string; isAdmin: boolean }) =>
	service.modulePage(db(), slug, reader);
export const complete = (userId: string, slug: string) => service.completeModule(db(), userId, slug);
export const undo = (userId: string, slug: string) => service.undoModule(db(), userId, slug);

export type { Progress, ModuleState } from './service';
export type { Module } from './queries';
