/**
 * `kustomize build` for the part of Kustomize that infra/k8s uses, so the tests see the manifests as
 * the cluster gets them without kubectl: `resources` (files and directories with a
 * kustomization.yaml) and `patches`, each a strategic merge patch (one or more documents, naming
 * their targets; `$patch: delete` removes one) or a JSON 6902 patch (add, replace, remove) on the
 * resources its `target` selects by kind, name and labels. Anything else is refused, so a
 * kustomization can use nothing the tests do not apply as Kustomize would.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonMap = { [key: string]: Json };

interface Target {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  labelSelector?: string;
}

interface Patch {
  path?: string;
  patch?: string;
  target?: Target;
}

interface Operation {
  op: string;
  path: string;
  value?: Json;
}

const KUSTOMIZATION_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'patches']);

/**
 * The lists that strategic merge patches merge item by item, by these keys (the Kubernetes API's
 * `patchMergeKey`s of the fields the manifests have); every other list is replaced whole.
 */
const MERGE_KEYS: Record<string, string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  // A container's ports by containerPort, a Service's by port.
  ports: ['containerPort', 'port'],
  imagePullSecrets: ['name'],
  topologySpreadConstraints: ['topologyKey'],
};

const isMap = (value: unknown): value is JsonMap =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const clone = <T>(value: T): T => structuredClone(value);

const idOf = (object: K8sObject) => `${object.kind}/${object.metadata.name}`;

function documentsOf(text: string, source: string): Json[] {
  return parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length) throw new Error(`${source}: ${document.errors[0]!.message}`);
    const value = document.toJS() as Json;
    return value === null ? [] : [value];
  });
}

function asObject(value: Json, source: string): K8sObject {
  if (!isMap(value) || typeof value.apiVersion !== 'string' || typeof value.kind !== 'string') {
    throw new Error(`${source}: a resource needs apiVersion and kind`);
  }
  if (!isMap(value.metadata) || typeof value.metadata.name !== 'string') {
    throw new Error(`${source}: ${value.kind} without metadata.name`);
  }
  return value as unknown as K8sObject;
}

/** Merges a strategic merge patch into a resource's field: maps key by key, `null` deletes a key. */
function mergeStrategic(target: Json | undefined, patch: Json, field: string, at: string): Json {
  if (isMap(patch)) {
    const directive = Object.keys(patch).find((key) => key.startsWith('$'));
    if (directive) throw new Error(`${at}: the directive ${directive} is not applied here`);
    if (!isMap(target)) return clone(patch);
    const merged: JsonMap = { ...target };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else merged[key] = mergeStrategic(merged[key], value, key, `${at}.${key}`);
    }
    return merged;
  }
  if (Array.isArray(patch) && Array.isArray(target) && MERGE_KEYS[field]) {
    const key = MERGE_KEYS[field]!.find((candidate) =>
      patch.every((item) => isMap(item) && candidate in item),
    );
    if (!key)
      throw new Error(`${at}: every item of a patch of ${field} needs ${MERGE_KEYS[field]!.join(' or ')}`);
    const merged = [...target];
    for (const item of patch as JsonMap[]) {
      const index = merged.findIndex((existing) => isMap(existing) && existing[key] === item[key]);
      if (index === -1) merged.push(clone(item));
      else merged[index] = mergeStrategic(merged[index], item, '', `${at}[${key}=${String(item[key])}]`);
    }
    return merged;
  }
  return clone(patch);
}

/** JSON pointer segments (RFC 6901). */
const segmentsOf = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));

function applyOperations(object: K8sObject, operations: Operation[], at: string): void {
  for (const { op, path: pointer, value } of operations) {
    const segments = segmentsOf(pointer);
    const last = segments.pop();
    if (last === undefined) throw new Error(`${at}: ${op} of the whole resource`);
    let parent: Json = object as unknown as Json;
    for (const segment of segments) {
      const next: Json | undefined = Array.isArray(parent)
        ? parent[Number(segment)]
        : isMap(parent)
          ? parent[segment]
          : undefined;
      if (next === undefined) throw new Error(`${at}: ${pointer} does not exist`);
      parent = next;
    }
    const exists = Array.isArray(parent) ? Number(last) < parent.length : isMap(parent) && last in parent;
    if (op === 'add' && value !== undefined) {
      if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, clone(value));
      else if (isMap(parent)) parent[last] = clone(value);
      else throw new Error(`${at}: ${pointer} does not exist`);
    } else if (op === 'replace' && value !== undefined && exists) {
      if (Array.isArray(parent)) parent[Number(last)] = clone(value);
      else (parent as JsonMap)[last] = clone(value);
    } else if (op === 'remove' && exists) {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete (parent as JsonMap)[last];
    } else {
      throw new Error(`${at}: ${op} ${pointer} cannot be applied`);
    }
  }
}

function selects(target: Target, object: K8sObject): boolean {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : ['', object.apiVersion];
  const labels = object.metadata.labels ?? {};
  const wanted = (target.labelSelector ?? '')
    .split(',')
    .filter(Boolean)
    .map((term) => term.split('='));
  return (
    (target.group === undefined || target.group === group) &&
    (target.version === undefined || target.version === version) &&
    (target.kind === undefined || target.kind === object.kind) &&
    (target.name === undefined || target.name === object.metadata.name) &&
    wanted.every(([key, value]) => labels[key!] === value)
  );
}

function applyPatch(objects: K8sObject[], patch: Patch, dir: string, at: string): K8sObject[] {
  const unknown = Object.keys(patch).filter((key) => !['path', 'patch', 'target'].includes(key));
  if (unknown.length) throw new Error(`${at}: ${unknown.join(', ')} is not applied here`);
  if (patch.target?.name !== undefined && /[\\^$.*+?()[\]{}|]/.test(patch.target.name)) {
    throw new Error(`${at}: a target name is matched literally here, not as Kustomize's pattern`);
  }
  const text = patch.path ? readFileSync(path.join(dir, patch.path), 'utf8') : patch.patch;
  if (text === undefined) throw new Error(`${at}: a patch needs path or patch`);
  const documents = documentsOf(text, at);
  if (documents.length === 1 && Array.isArray(documents[0])) {
    if (!patch.target) throw new Error(`${at}: a JSON 6902 patch needs a target`);
    const selected = objects.filter((object) => selects(patch.target!, object));
    if (!selected.length) throw new Error(`${at}: the target selects nothing`);
    for (const object of selected) applyOperations(object, documents[0] as unknown as Operation[], at);
    return objects;
  }
  let result = objects;
  for (const document of documents) {
    if (!isMap(document)) throw new Error(`${at}: a strategic merge patch is a map`);
    const { $patch: directive, ...body } = document;
    const named = asObject(body, at);
    const matches = (object: K8sObject) =>
      patch.target
        ? selects(patch.target, object)
        : object.kind === named.kind && object.metadata.name === named.metadata.name;
    const selected = result.filter(matches);
    if (!selected.length) throw new Error(`${at}: ${idOf(named)} matches no resource`);
    if (directive === 'delete') {
      result = result.filter((object) => !matches(object));
    } else if (directive === undefined) {
      result = result.map((object) =>
        matches(object)
          ? (mergeStrategic(
              object as unknown as Json,
              body,
              '',
              `${at} ${idOf(object)}`,
            ) as unknown as K8sObject)
          : object,
      );
    } else {
      throw new Error(`${at}: $patch: ${String(directive)} is not applied here`);
    }
  }
  return result;
}

/** The resources a kustomization directory builds to, its patches applied. */
export function buildKustomization(dir: string): K8sObject[] {
  const file = path.join(dir, 'kustomization.yaml');
  const [kustomization] = documentsOf(readFileSync(file, 'utf8'), file);
  if (!isMap(kustomization)) throw new Error(`${file}: not a kustomization`);
  const unknown = Object.keys(kustomization).filter((key) => !KUSTOMIZATION_FIELDS.has(key));
  if (unknown.length) throw new Error(`${file}: ${unknown.join(', ')} is not applied here`);
  let objects = ((kustomization.resources ?? []) as string[]).flatMap((resource) => {
    const full = path.join(dir, resource);
    if (!existsSync(full)) throw new Error(`${file}: ${resource} does not exist`);
    if (statSync(full).isDirectory()) return buildKustomization(full);
    return documentsOf(readFileSync(full, 'utf8'), full).map((document) => asObject(document, full));
  });
  ((kustomization.patches ?? []) as Patch[]).forEach((patch, index) => {
    objects = applyPatch(objects, patch, dir, `${file} patches[${index}]`);
  });
  const ids = objects.map(idOf);
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (twice.length) throw new Error(`${file}: ${twice.join(', ')} more than once`);
  return objects;
}
