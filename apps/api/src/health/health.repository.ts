import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { sqlStatement } from '../database/sql-statement';

const PING = sqlStatement<object, { ok: number }>('health.ping', 'SELECT 1 AS ok');

@Injectable()
export class HealthRepository {
  // Through Database, so that the check has the same deadline as every request's statements.
  constructor(private readonly database: Database) {}

  async ping(): Promise<void> {
    await this.database.row(PING, {});
  }
}
