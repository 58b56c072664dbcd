export { compileFlowGraph } from './compile-graph.ts';
export { loadFlowProgram, FlowProgram, FlowInstance } from './flow-program.ts';
export { FlowRuntime, type FlowDebugStatus, type FlowRuntimeOptions } from './flow-runtime.ts';
export { FLOW_FIRED_BY_HOST, FLOW_PURE_EVALUATION, FlowWatch, type FlowWatchOptions, type FlowWatchRecord } from './flow-debug.ts';
export type { FlowReloadReport } from './reload-graph.ts';
export { FlowRegistry } from './flow-registry.ts';
export { assignable, validateFlowGraph } from './validate-graph.ts';
export { parseSjson, type SjsonValue } from './sjson.ts';
export { FlowActionRecorder, FlowActionReplay } from './action-tape.ts';
export { FlowError, FlowGraphError, FlowTapeFullError, type FlowIssue, type FlowIssueCode } from './errors.ts';
export {
  FLOW_VALUE_TYPES,
  type FlowActionCall,
  type FlowActionSpec,
  type FlowBuiltinEvent,
  type FlowConstant,
  type FlowGraphKind,
  type FlowGraphSource,
  type FlowInstanceHandle,
  type FlowLinkSource,
  type FlowNodeSource,
  type FlowNodeTypeInfo,
  type FlowProgramStats,
  type FlowSettingSpec,
  type FlowSocketSpec,
  type FlowValueType,
  type FlowVariableSource,
} from './api.ts';
