// How a statement checks that the caller (`$accountId`) belongs to a project: one probe of the
// members' primary key, in the statement that reads or writes, so that a membership ended a
// moment ago is seen by the very next statement on any instance.

/** Whether `$accountId` is a member of the project whose id is `projectId`, in any role. */
export const isMember = (projectId: string) =>
  `EXISTS (SELECT 1 FROM project_members pm
    WHERE pm.project_id = ${projectId} AND pm.account_id = $accountId)`;

/** The role of `$accountId` in the project whose id is `projectId`; NULL when not a member. */
export const roleIn = (projectId: string) =>
  `(SELECT pm.role FROM project_members pm
    WHERE pm.project_id = ${projectId} AND pm.account_id = $accountId)`;
