import { Injectable } from '@nestjs/common';
import { DatabaseUnavailableError } from '../common/errors';
import { HealthRepository } from './health.repository';

@Injectable()
export class HealthService {
  constructor(private readonly repository: HealthRepository) {}

  async assertDatabaseReachable(): Promise<void> {
    try {
      await this.repository.ping();
    } catch {
      throw new DatabaseUnavailableError();
    }
  }
}
