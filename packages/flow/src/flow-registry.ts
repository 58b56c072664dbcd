import { FLOW_VALUE_TYPES, type FlowActionSpec, type FlowNodeTypeInfo, type FlowSocketSpec } from './api.ts';
import { Op } from './blob-layout.ts';
import { FlowError } from './errors.ts';
import { STANDARD_LIBRARY, type NodeTypeDef } from './standard-library.ts';

/** Registered action: its node type plus the function the runtime calls. */
export interface ActionDef extends NodeTypeDef {
  action: FlowActionSpec;
}

const ACTION_NAME = /^[A-Za-z_][\w]*$/;

/**
 * The node type registry: the standard library plus the host actions a game registers. The
 * compiler validates graphs against it and the loader binds actions by name from it, so the
 * same registry (or one with the same actions) must be used for both.
 */
export class FlowRegistry {
  readonly #types = new Map<string, NodeTypeDef>();

  constructor() {
    for (const type of STANDARD_LIBRARY) this.#types.set(type.name, type);
  }

  /** Registers a host action as node type 'action/<name>'; returns that type name. */
  defineAction(spec: FlowActionSpec): string {
    if (typeof spec.name !== 'string' || !ACTION_NAME.test(spec.name)) {
      throw new FlowError(`Action name "${spec.name}" must be an identifier (letters, digits, _).`);
    }
    const typeName = `action/${spec.name}`;
    if (this.#types.has(typeName)) throw new FlowError(`Action "${spec.name}" is already registered; register each action once.`);
    if (typeof spec.run !== 'function') throw new FlowError(`Action "${spec.name}" needs a run(call) function.`);
    const inputs = checkSockets(spec.name, 'input', spec.inputs ?? []);
    const outputs = checkSockets(spec.name, 'output', spec.outputs ?? []);
    for (const output of outputs) {
      if (output.type === 'string') throw new FlowError(`Action "${spec.name}" output "${output.name}" is a string; actions can only output float, int, bool or unit.`);
    }
    const type: ActionDef = {
      name: typeName,
      op: Op.action,
      eventInputs: ['in'],
      eventOutputs: ['out'],
      inputs,
      outputs,
      settings: [],
      stateSlots: 0,
      ticks: false,
      description: `Host action ${spec.name}.`,
      action: spec,
    };
    this.#types.set(typeName, type);
    return typeName;
  }

  /** Whether a node type named `typeName` is registered (built-in or added). */
  has(typeName: string): boolean {
    return this.#types.has(typeName);
  }

  /** The node type's description, or undefined when it is not registered. */
  get(typeName: string): FlowNodeTypeInfo | undefined {
    return this.#types.get(typeName);
  }

  /** Every registered type, standard library first, for editors and documentation. */
  types(): FlowNodeTypeInfo[] {
    return [...this.#types.values()];
  }

  /** The host actions defined so far, in the order they were defined. */
  actions(): FlowActionSpec[] {
    const specs: FlowActionSpec[] = [];
    for (const type of this.#types.values()) if ('action' in type) specs.push((type as ActionDef).action);
    return specs;
  }

  /** @internal The compiler's and loader's view. */
  definition(typeName: string): NodeTypeDef | undefined {
    return this.#types.get(typeName);
  }
}

function checkSockets(action: string, kind: string, sockets: readonly FlowSocketSpec[]): FlowSocketSpec[] {
  const seen = new Set<string>();
  return sockets.map((socket) => {
    if (typeof socket.name !== 'string' || !ACTION_NAME.test(socket.name)) {
      throw new FlowError(`Action "${action}" ${kind} name "${socket.name}" must be an identifier.`);
    }
    if (seen.has(socket.name)) throw new FlowError(`Action "${action}" has two ${kind}s named "${socket.name}"; rename one.`);
    seen.add(socket.name);
    if (!FLOW_VALUE_TYPES.includes(socket.type)) {
      throw new FlowError(`Action "${action}" ${kind} "${socket.name}" has unknown type "${socket.type}": use one of ${FLOW_VALUE_TYPES.join(', ')}.`);
    }
    return { ...socket };
  });
}
