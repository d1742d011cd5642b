from django.db import migrations


class Migration(migrations.Migration):
    """Joins two branches that each added an index to the penalty records after 0011: «my
    penalties» (0012) and the console's and report's (0013). A merge rather than a new parent
    for 0013, so a database that applied 0013 first still migrates."""

    dependencies = [
        ('judging', '0012_index_a_judges_records_by_tournament'),
        ('judging', '0013_index_penalty_records_by_issue_order_and_newest_first'),
    ]

    operations = []
