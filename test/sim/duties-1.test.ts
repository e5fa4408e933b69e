// Seeds 1-500 of the simulation's duties (./duties.ts).
import { dutyTests } from './duties.js';

dutyTests(1, 500);
