// CONTRACT §9 on sqlite, in the three handler modes (relations.suite.ts).
import { relationsSuite } from './relations.suite';

relationsSuite('sqlite');
