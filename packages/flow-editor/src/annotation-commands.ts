// Commands on what the compiler never sees (comment boxes, groups) and on graph variables.
import type { FlowConstant, FlowValueType } from '@cuttle/flow';
import type { FlowCommentEdit, FlowEditorComment, FlowEditorGroup, FlowEditorVariable, FlowGroupEdit, FlowRect } from './api.ts';
import { checkIds, checkRect, checkText, constantProblem } from './constants.ts';
import type { DocumentState } from './document-state.ts';
import { FlowEditorError } from './errors.ts';
import { freshId } from './ids.ts';
import { isValueType } from './node-pins.ts';
import { ownSet } from './own.ts';
import { readVariable } from './read-source.ts';
import type { CommentRecord, GroupRecord } from './records.ts';
import type { Transaction } from './transaction.ts';

function requireComment(state: DocumentState, id: string): CommentRecord {
  const comment = state.comments.get(id);
  if (comment === undefined) throw new FlowEditorError('unknown-comment', `No comment box "${id}".`);
  return comment;
}

function requireGroup(state: DocumentState, id: string): GroupRecord {
  const group = state.groups.get(id);
  if (group === undefined) throw new FlowEditorError('unknown-group', `No group "${id}".`);
  return group;
}

function checkMembers(state: DocumentState, members: unknown): string[] {
  const ids = checkIds(members, 'Group members');
  for (const id of ids) state.requireNode(id);
  return [...ids];
}

export function addComment(state: DocumentState, tx: Transaction, text: string, rect: FlowRect): FlowEditorComment {
  const comment: CommentRecord = { id: freshId('comment', (c) => state.boxIdTaken(c)), text: checkText(text, 'A comment'), ...checkRect(rect, 'A comment box'), raw: undefined };
  state.insertComment(tx, comment);
  return comment;
}

export function editComment(state: DocumentState, tx: Transaction, id: string, edit: FlowCommentEdit): FlowEditorComment {
  const comment = requireComment(state, id);
  const next: CommentRecord = {
    ...comment,
    ...(edit.rect === undefined ? {} : checkRect(edit.rect, 'A comment box')),
    text: edit.text === undefined ? comment.text : checkText(edit.text, 'A comment'),
  };
  state.replaceComment(tx, next);
  return next;
}

export function removeComments(state: DocumentState, tx: Transaction, ids: readonly string[]): void {
  for (const id of ids) requireComment(state, id);
  for (const id of ids) state.removeComment(tx, id);
}

export function addGroup(state: DocumentState, tx: Transaction, title: string, rect: FlowRect, members: readonly string[]): FlowEditorGroup {
  const group: GroupRecord = { id: freshId('group', (c) => state.boxIdTaken(c)), title: checkText(title, 'A group title'), ...checkRect(rect, 'A group'), members: checkMembers(state, members), raw: undefined };
  state.insertGroup(tx, group);
  return group;
}

export function editGroup(state: DocumentState, tx: Transaction, id: string, edit: FlowGroupEdit): FlowEditorGroup {
  const group = requireGroup(state, id);
  const next: GroupRecord = {
    ...group,
    ...(edit.rect === undefined ? {} : checkRect(edit.rect, 'A group')),
    title: edit.title === undefined ? group.title : checkText(edit.title, 'A group title'),
    members: edit.members === undefined ? group.members : checkMembers(state, edit.members),
  };
  state.replaceGroup(tx, next);
  return next;
}

export function removeGroups(state: DocumentState, tx: Transaction, ids: readonly string[]): void {
  for (const id of ids) requireGroup(state, id);
  for (const id of ids) state.removeGroup(tx, id);
}

/** Declares, changes or (with undefined) removes a graph variable. */
export function setVariable(state: DocumentState, tx: Transaction, name: string, spec: { type: FlowValueType; value?: FlowConstant } | undefined): FlowEditorVariable | undefined {
  if (typeof name !== 'string' || name === '') throw new FlowEditorError('bad-argument', `A variable name must be a non-empty string, got ${JSON.stringify(name)}.`);
  if (spec === undefined) {
    if (!state.variables.has(name)) throw new FlowEditorError('bad-argument', `No variable "${name}" to remove.`);
    state.setVariable(tx, undefined, name);
    return undefined;
  }
  if (!isValueType(spec.type)) throw new FlowEditorError('bad-value', `Variable "${name}" needs a type, one of float, int, bool, unit, string; got ${JSON.stringify(spec.type)}.`);
  if (spec.value !== undefined) {
    const problem = constantProblem(spec.value, spec.type);
    if (problem !== undefined) throw new FlowEditorError('bad-value', `Variable "${name}" initial value ${JSON.stringify(spec.value)} ${problem} (type ${spec.type}).`);
  }
  const written = {};
  ownSet(written, 'type', spec.type);
  if (spec.value !== undefined) ownSet(written, 'value', spec.value);
  const record = readVariable(name, written);
  state.setVariable(tx, record, name);
  return record;
}
