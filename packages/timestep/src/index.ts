export { SmoothingFilter, SMOOTHING_HISTORY, SMOOTHING_TRIM } from './smoothing-filter.ts';
export { TimeDebt } from './time-debt.ts';
export { FixedStepper } from './fixed-stepper.ts';
export { TimeStep } from './time-step.ts';
export { FrameLoop, type FrameCallbacks } from './frame-loop.ts';
export { animationFrameScheduler, timerScheduler, defaultScheduler, type FrameScheduler } from './frame-scheduler.ts';
export { TimestepError } from './errors.ts';
export type {
  TimeStepPolicy,
  TimeStepOptions,
  SmoothingFilterOptions,
  TimeDebtOptions,
  DebtPayback,
  FixedStepperOptions,
} from './api.ts';
