// Seeds 501-1000 of the simulation's duties (./duties.ts).
import { dutyTests } from './duties.js';

dutyTests(501, 1000);
