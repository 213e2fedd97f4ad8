export { queryPlan, type TempEngines, tempEngines } from './temp-engines';
