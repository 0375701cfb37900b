// CONTRACT §9 on postgres, in the three handler modes (relations.suite.ts).
import { relationsSuite } from './relations.suite';

relationsSuite('postgres');
