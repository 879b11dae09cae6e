/**
 * The DataSource for TypeORM's own CLI (`npm run typeorm -- migration:show`, `migration:revert`, ...), built from the
 * same environment as the service. The service migrates itself with `qa migrate`; this is for inspection and repair.
 */
import { loadConfig } from './src/config.js';
import { prepareDataSource } from './src/store/open-store.js';

export default prepareDataSource(loadConfig().database);
