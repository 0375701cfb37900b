// The public API of Tessera: everything applications import from 'tessera'.
export { defineService, Service } from './service';
export type { ServiceActionDefinition, ServiceDeclaration, ServiceAction } from './service';
export { listServices, clearRegistry } from './registry';
export { Resource } from './resource';
export type { ResourceDeclaration } from './resource';
export { crud } from './crud/crud-plugin';
export type { CrudActions, CrudResource, CrudPlugin, Row, ListInput } from './crud/crud-plugin';
export type { AccessRules, Context, CrudHooks, CrudOptions, FieldPolicy, JsonSchema, RouteSetting, ScrubArgs, Where } from './crud/options';
export { createServer } from './server/create-server';
export type { EndpointDefinition, ServerOptions } from './server/server-options';
export { TesseraError, ERROR_CODES, SetupError } from './errors';
export type { ErrorCode, ErrorDetail } from './errors';
export { OPERATOR_NAMES } from './query/operators';
export type { OperatorName } from './query/operators';
export { CRUD_ACTION_NAMES } from './actions';
export type { CrudActionName } from './actions';
