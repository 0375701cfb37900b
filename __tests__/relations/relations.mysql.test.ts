// CONTRACT §9 on mysql, in the three handler modes (relations.suite.ts).
import { relationsSuite } from './relations.suite';

relationsSuite('mysql');
