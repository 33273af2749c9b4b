import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/**
 * The statements of the purge of deleted accounts (see AccountPurge). Each is a transaction of
 * its own. They delete `projects` rows by owner, as DELETE /projects/<id> deletes one (the tree
 * beneath cascades); the layout's own statements are not used, since the layout module works on
 * one project of a signed-in account and these run for no one.
 */
@Injectable()
export class AccountPurgeRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Deleted accounts not purged yet, the longest waiting first. */
  async deletedAccounts(limit: number): Promise<string[]> {
    const rows = await this.prisma.bounded(
      this.prisma.account.findMany({
        where: { deletedAt: { not: null } },
        orderBy: { deletedAt: 'asc' },
        take: limit,
        select: { id: true },
      }),
    );
    return rows.map((row) => row.id);
  }

  /**
   * Deletes one project of the deleted account, with its tree: a transaction as long as that
   * project's delete, holding that project's lock only. A project whose lock someone holds (a
   * write still under way) is skipped, never waited for; false when none was deleted.
   */
  async deleteOneProject(accountId: string): Promise<boolean> {
    const deleted = await this.prisma.bounded(
      this.prisma.$executeRaw`
        WITH doomed AS (
          SELECT p.id FROM projects p
          WHERE p.owner_id = ${accountId}::uuid
            AND EXISTS (SELECT 1 FROM accounts a WHERE a.id = p.owner_id AND a.deleted_at IS NOT NULL)
          LIMIT 1 FOR UPDATE OF p SKIP LOCKED)
        DELETE FROM projects p USING doomed d WHERE p.id = d.id`,
    );
    return deleted > 0;
  }

  /** Deletes the deleted account once it has no project left; false while it has some. */
  async deleteIfPurged(accountId: string): Promise<boolean> {
    const deleted = await this.prisma.bounded(
      this.prisma.$executeRaw`
        DELETE FROM accounts a
        WHERE a.id = ${accountId}::uuid AND a.deleted_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.owner_id = a.id)`,
    );
    return deleted > 0;
  }
}
