import { ComponentManager } from './component-manager.ts';
import { EcsError } from './errors.ts';

/** How an object manager makes and copies its components. */
export interface ObjectComponentOptions<T> {
  /** Makes a fresh component in its default state. */
  create: () => T;
  /** Copies a component for `copy()`; left out, a fresh one gets the source's own fields. */
  clone?: (source: T) => T;
}

/** A ComponentManager whose components are objects from a factory: for data that is not numeric. */
export class ObjectComponentManager<T extends object> extends ComponentManager {
  /** Always `'object'`: tells object managers from schema ones. */
  readonly kind = 'object';
  readonly #create: () => T;
  readonly #clone: (source: T) => T;
  #components: (T | undefined)[] = [];
  #stash: T | undefined;

  constructor(options: ObjectComponentOptions<T>) {
    super();
    if (typeof options.create !== 'function') throw new EcsError('an object manager needs a create() factory.');
    this.#create = options.create;
    this.#clone = options.clone ?? ((source) => Object.assign(options.create(), source));
  }

  /** Adds a fresh component for `entity` and returns it. */
  create(entity: number): T {
    const index = this.addRow(entity);
    const component = this.#create();
    this.#components[index] = component;
    return component;
  }

  /** `entity`'s component, or undefined: the post's GetComponent. */
  getComponent(entity: number): T | undefined {
    const index = this.indexOf(entity);
    return index === -1 ? undefined : this.#components[index];
  }

  /** The component at row `index` (the post's operator[]). */
  at(index: number): T {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) throw new EcsError(`at: index ${index} is out of range [0, ${this.count}).`);
    return this.#components[index]!;
  }

  /** The factory, for staging loads. */
  emptyClone(): ObjectComponentManager<T> {
    return new ObjectComponentManager({ create: this.#create, clone: this.#clone });
  }

  /** {@inheritDoc ComponentManager.growStorage} */
  protected growStorage(): void {
    // A JS array grows by itself.
  }

  /** {@inheritDoc ComponentManager.copyRow} */
  protected copyRow(from: number, to: number): void {
    this.#components[to] = this.#components[from];
  }

  /** {@inheritDoc ComponentManager.moveRows} */
  protected moveRows(target: number, start: number, end: number): void {
    this.#components.copyWithin(target, start, end);
  }

  /** {@inheritDoc ComponentManager.stashRow} */
  protected stashRow(index: number): void {
    this.#stash = this.#components[index];
  }

  /** {@inheritDoc ComponentManager.unstashRow} */
  protected unstashRow(index: number): void {
    this.#components[index] = this.#stash;
    this.#stash = undefined;
  }

  /** {@inheritDoc ComponentManager.gatherRows} */
  protected gatherRows(start: number, order: ArrayLike<number>): void {
    const saved = this.#components.slice(start, start + order.length);
    for (let k = 0; k < order.length; k++) this.#components[start + k] = saved[order[k]! - start];
  }

  /** {@inheritDoc ComponentManager.releaseRows} */
  protected releaseRows(start: number, end: number): void {
    for (let i = start; i < end; i++) this.#components[i] = undefined;
  }

  /** {@inheritDoc ComponentManager.appendRows} */
  protected appendRows(other: this, count: number, move: boolean): void {
    const start = this.count;
    for (let i = 0; i < count; i++) {
      const source = other.#components[i]!;
      this.#components[start + i] = move ? source : this.#clone(source);
    }
  }

  /** {@inheritDoc ComponentManager.checkCompatible} */
  protected checkCompatible(other: this): void {
    if (!(other instanceof ObjectComponentManager)) throw new EcsError('copy/merge needs two object managers.');
  }
}
