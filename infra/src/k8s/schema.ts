/**
 * A manifest against the Kubernetes API's schemas (kubernetes-models): types, required fields and
 * enumerations by its JSON schema, and, as the API server's strict field validation does, no field
 * the schema does not know (a misspelt probe would otherwise be dropped without a word). The fields
 * are read from the models' type declarations, interface by interface.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Model } from '@kubernetes-models/base';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import type { K8sObject } from './kustomize.js';

type ModelClass = new (data: never) => Model<unknown>;

/** The kinds infra/k8s uses, by apiVersion and kind: the model and its declaration in the package. */
const MODELS: Record<string, [ModelClass, string]> = {
  'v1 ConfigMap': [ConfigMap, 'v1/ConfigMap'],
  'v1 Secret': [Secret, 'v1/Secret'],
  'v1 Service': [Service, 'v1/Service'],
  'apps/v1 Deployment': [Deployment, 'apps/v1/Deployment'],
  'batch/v1 Job': [Job, 'batch/v1/Job'],
  'batch/v1 CronJob': [CronJob, 'batch/v1/CronJob'],
  'networking.k8s.io/v1 Ingress': [Ingress, 'networking.k8s.io/v1/Ingress'],
  'policy/v1 PodDisruptionBudget': [PodDisruptionBudget, 'policy/v1/PodDisruptionBudget'],
  'autoscaling/v2 HorizontalPodAutoscaler': [
    HorizontalPodAutoscaler,
    'autoscaling/v2/HorizontalPodAutoscaler',
  ],
};

/** A package's directory as Node finds it from this file. */
function packageDir(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${name} is not installed`);
    dir = parent;
  }
}

/** The declaration file an import of a declaration file names. */
function declarationOf(from: string, specifier: string): string {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(from), specifier.replace(/\.js$/, '.d.ts'));
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const subpath = parts.slice(name.split('/').length).join('/');
  return path.join(packageDir(name), `${subpath || 'index'}.d.ts`);
}

/** An interface's fields (name → type) and the file each type it names is declared in. */
interface Fields {
  name: string;
  types: Map<string, string>;
  imports: Map<string, string>;
}

const parsed = new Map<string, Fields | undefined>();

/** The fields of the interface a declaration file exports; undefined for a type that is no object. */
function fieldsOf(file: string): Fields | undefined {
  if (parsed.has(file)) return parsed.get(file);
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const imports = new Map<string, string>();
  for (const [, names, specifier] of text.matchAll(/import \{([^}]+)\} from "([^"]+)"/g)) {
    for (const imported of names!.split(',')) imports.set(imported.trim(), declarationOf(file, specifier!));
  }
  const start = /export interface (\w+)[^{]*\{/.exec(text);
  let fields: Fields | undefined;
  if (start) {
    const types = new Map<string, string>();
    let depth = 0;
    let member = '';
    for (const char of text.slice(start.index + start[0].length)) {
      if (char === '}' && depth === 0) break;
      if (char === '{' || char === '<') depth += 1;
      if (char === '}' || char === '>') depth -= 1;
      if (char === ';' && depth === 0) {
        const match = /^"([^"]+)"\??:\s*([\s\S]+)$/.exec(member.trim());
        if (match) types.set(match[1]!, match[2]!.replace(/\s+/g, ' '));
        member = '';
      } else {
        member += char;
      }
    }
    fields = { name: start[1]!, types, imports };
  }
  parsed.set(file, fields);
  return fields;
}

/** Fields the schema does not know, anywhere in `value` of the type declared in `file`. */
function unknownFields(value: unknown, file: string, at: string): string[] {
  const fields = fieldsOf(file);
  if (!fields || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const type = fields.types.get(key);
    if (type === undefined) return [`${at}.${key}: no field of ${fields.name}`];
    return unknownOfType(inner, type, fields.imports, `${at}.${key}`);
  });
}

function unknownOfType(value: unknown, type: string, imports: Map<string, string>, at: string): string[] {
  const list = /^Array<(\w+)>$/.exec(type);
  if (list) {
    return Array.isArray(value)
      ? value.flatMap((item, index) => unknownOfType(item, list[1]!, imports, `${at}[${index}]`))
      : [];
  }
  const map = /^\{ \[key: string\]: (\w+); \}$/.exec(type);
  if (map && typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, inner]) =>
      unknownOfType(inner, map[1]!, imports, `${at}.${key}`),
    );
  }
  const file = imports.get(type);
  return file ? unknownFields(value, file, at) : [];
}

/** What the Kubernetes API would refuse in a manifest, in words; empty when it validates. */
export function schemaProblems(object: K8sObject): string[] {
  const id = `${object.kind}/${object.metadata.name}`;
  const model = MODELS[`${object.apiVersion} ${object.kind}`];
  if (!model) return [`${id}: no schema for ${object.apiVersion} ${object.kind}`];
  const [Class, declaration] = model;
  const problems: string[] = [];
  try {
    new Class(object as never).validate();
  } catch (error) {
    problems.push(`${id}: ${(error as Error).message}`);
  }
  const file = path.join(packageDir('kubernetes-models'), `${declaration}.d.ts`);
  return [...problems, ...unknownFields(object, file, id)];
}
